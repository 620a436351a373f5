"""What the tests and benchmarks run against.

A throwaway PostgreSQL server (``postgres_server``), a local chat model behind
llama.cpp's server (``local_model``, and ``assemble_qwen`` for a larger model),
and a reading of everything a memory stores (``memory_state``).
"""
