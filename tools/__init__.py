"""The repository's development tools, not the agent tools.

The agent's tools are ``langgraph_adamm.tools``. This folder holds what the tests
and the benchmarks of the repository need: ``benchmarks`` (the measurements in
BENCHMARKS.md), ``datasets`` (history generators and question sets with exact
answers) and ``support`` (the servers and helpers the tests and benchmarks run
against). It is not part of the installed package.
"""
