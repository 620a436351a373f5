"""Evaluation against public benchmarks."""
