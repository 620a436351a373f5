"""Analytic memory (AdaMM §3.3): extraction, schema induction, tables, operators."""
