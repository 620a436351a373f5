"""Every tunable parameter of the library, in one place (AdaMM Table 5)."""

from __future__ import annotations

from dataclasses import dataclass, field

TEXT_BACKENDS = ("auto", "torch", "onnx", "onnx-int8")
"""How the text encoder can run (:attr:`AdaMMConfig.text_backend`)."""


@dataclass(frozen=True)
class ForestConfig:
    """The evidence forest's parameters (GraphMemix; the authors' release values).

    Not tuned on any benchmark here: the release's values are used as they are.
    """

    seeds: int = 24
    """L: memories taken from retrieval as seeds."""
    pool: int = 48
    """M: candidates at most (seeds plus their 1-hop neighbours)."""
    knn: int = 8
    """k of the mutual-kNN semantic relation (it only widens the pool)."""
    retrieval_depth: int = 100
    """Memories scored by retrieval; a neighbour outside them gets the lowest
    retrieved score minus 0.01."""
    anchors: int = 10
    """ECV anchors: the first candidates in retrieval order."""
    explicit_similarity: float = 0.99
    """Similarity of an explicit relation (same round, consecutive turn)."""
    reader_budget: int = 10
    """K: memories the solver may select (the reader's budget)."""
    lam: float = 0.1
    """λ: weight of edge costs."""
    kappa_prop: float = 0.2
    """κ_prop: component cost of the fixed-cardinality proposal stage."""
    kappa: float = 0.12
    """κ: component cost of the exact refinement stage."""
    reliability_ceiling: float = 0.99
    """Highest edge reliability (r = ceiling · incremental / 5)."""
    utility_a: float = 4.054056
    utility_b: float = 0.225380
    utility_c: float = -3.711336
    """Node utility u = σ(a·s + b·v + c), s the retrieval score, v ∈ [0, 5]."""
    snippet_chars: int = 420
    ocr_chars: int = 120
    attempts: int = 3
    """Verifier calls per question and verifier before falling back."""
    offline: bool = False
    """Rerank without a model (v = 0, explicit edges at fixed reliability 0.99).
    Off by default: on the Mem-Gallery dev split this fixed-edge variant lost
    to the hierarchy alone (BENCHMARKS.md, "Evidence forest")."""

    def __post_init__(self) -> None:
        """Reject settings the solver or the verifiers cannot work with."""
        for name in ("seeds", "pool", "knn", "retrieval_depth", "anchors"):
            if getattr(self, name) < 1:
                raise ValueError(f"ForestConfig.{name} must be at least 1")
        if not 1 <= self.reader_budget <= 20:
            raise ValueError(
                "ForestConfig.reader_budget must be from 1 to 20 (the exact stage "
                f"scores all 2^K - 1 subsets), got {self.reader_budget}"
            )
        if self.seeds > self.pool:
            raise ValueError("ForestConfig.seeds must not exceed pool")
        if not 0.0 < self.reliability_ceiling <= 1.0:
            raise ValueError("ForestConfig.reliability_ceiling must be in (0, 1]")
        if not 0.0 < self.explicit_similarity <= 1.0:
            raise ValueError("ForestConfig.explicit_similarity must be in (0, 1]")
        for name in ("lam", "kappa_prop", "kappa"):
            if getattr(self, name) < 0:
                raise ValueError(f"ForestConfig.{name} must not be negative")
        if self.attempts < 1 or self.snippet_chars < 1 or self.ocr_chars < 0:
            raise ValueError(
                "ForestConfig.attempts and snippet_chars must be at least 1, "
                "ocr_chars at least 0"
            )


@dataclass(frozen=True)
class AdaMMConfig:
    """Parameters of analytic and retrieval memory.

    Defaults are the paper's settings (AdaMM, Appendix C, Table 5) where the paper
    gives one; the rest are engineering choices documented next to each field.
    """

    # Schema induction (AdaMM §3.3.2).
    support_threshold: int = 4
    """θ_s: a pattern is a candidate once this many rounds contain it."""
    all_confidence_threshold: float = 0.60
    """θ_a: minimum all-confidence for a novel pattern to become a schema."""
    extension_confidence_threshold: float = 0.80
    """θ_e: minimum extension-confidence for a schema to grow."""
    min_schema_size: int = 2
    """Smallest attribute set admitted as a schema. A schema is a co-occurrence
    structure; admitting single attributes (1) would also turn every attribute
    that joins a schema a little late into a table of its own before evolution
    could take it in."""
    lone_kinds: bool = True
    """An attribute stated alone in at least θ_s rounds, alone in at least θ_a
    of the rounds that state it, and mostly with numbers when alone ("weight:
    89.2 kg"), is a one-column kind (``schema_induction.lone_kind``) despite
    ``min_schema_size``; False keeps such records out of every table."""
    match_fraction: float = 0.5
    """A round becomes a row of a schema's table when it carries at least this
    fraction of the schema's attributes (rounded up, at least one)."""
    variants_join_their_kind: bool = True
    """A candidate pattern whose rounds are mostly rows of an existing schema
    (a misread value took the place of one of its fields) is no schema of its
    own (``mining.variant_of``); False keeps plain discovery, which can split
    one record kind into two tables."""
    optional_columns: bool = True
    """An attribute a kind's records state now and then, and almost only in
    them (θ_e of the records stating it carry all of the schema), is an
    optional column of the kind's table, and no kind of its own: the shifts
    logged with parcels packed or kilos sorted are one table of shifts. False
    keeps AdaMM's tables of the schema's attributes only."""
    realign_kinds: bool = True
    """After ingestion, give the attribute names of one kind one name and read
    rounds again with a known kind as the guide (``analytic.realign``; a
    process's first ingestion, then each time the rounds since the last reach
    ``ingestion.REALIGN_GROWTH`` of the memory's); False keeps what extraction
    read, round by round."""
    type_inference_fraction: float = 0.9
    """A column gets a typed SQL type when at least this fraction of its observed
    values parse as that type; the rest become NULL in the table (the raw values
    stay in the observations)."""
    max_subset_search: int = 256
    """Bound on the exact search for maximal qualifying subsets of one pattern;
    past it the search continues greedily."""

    # Retrieval memory (AdaMM Appendix A).
    episode_threshold: float = 0.60
    topic_threshold: float = 0.65
    episode_max_gap_days: float = 1.0
    text_weight: float = 0.60
    visual_weight: float = 0.40
    event_window: int = 1
    """EventLocate returns each event with this many neighbours on each side
    (within its session)."""
    text_backend: str = "auto"
    """How the default text encoder runs: ``"torch"`` (the reference),
    ``"onnx"`` (ONNX Runtime, the same vectors), ``"onnx-int8"`` (int8:
    1.6-1.7x the encoder throughput on a 2-core CPU, 1.4-1.8x ingestion; recall
    per backend in BENCHMARKS.md) or ``"auto"``: onnx when ``[onnx]`` is
    installed and the model has, or can be given, an export (the packaged
    MiniLM is exported once, without torch, in a few seconds), else torch.
    onnx and torch give the same vectors, so a memory made with one is read
    with the other."""
    turn_views: bool = False
    """Also embed each turn of a two-turn round on its own (views ``turn:user`` and
    ``turn:assistant``): the evidence forest then works on single turns, as
    GraphMemix does. Off by default: it roughly doubles the text encoded per
    dialogue round. Event search never uses these views."""
    chunk_views: bool = True
    """Views longer than the text model's window (256 tokens for MiniLM) are
    cut at sentence ends into pieces stored as views of their own (``round|2``
    ...), instead of being truncated; event scores take the best piece, and a
    round's vector is the mean of its pieces weighted by their length."""
    encode_image_round_views: bool = False
    """Whether a round with images has its whole-round text (dialogue,
    captions and OCR in one text) encoded beside its dialogue, caption and OCR
    views. Off (the default), its whole-round view is composed from those
    views' vectors (their mean weighted by text length), so no text is encoded
    twice: about a quarter fewer tokens on an image-heavy history, at the same
    recall on the Mem-Gallery dev split. Speed and recall with each setting are
    in BENCHMARKS.md."""
    label_round_views: bool = False
    """Embed a round's whole-text view as :func:`round_text` writes it, with
    role labels and image markers ("User: ", "[Image S1:IMG_1] "). Off (the
    default), without them: labels every round shares pull the rounds'
    vectors together (flat dense Recall@10 on the LoCoMo dev split 0.441 with
    them, 0.503 without; BENCHMARKS.md). The stored event text keeps them."""
    approximate_search_above: int | None = 100_000
    """Past this many vectors in one index, event search switches from exact
    FAISS search to an HNSW graph (recall against exact search in
    BENCHMARKS.md); None: always exact."""
    hnsw_m: int = 32
    """HNSW graph degree."""
    hnsw_ef_search: int = 512
    """HNSW candidates per search (at least the number asked for). 512 gave
    recall@10 0.976 against exact search at 1M events in 1.4 ms (128: 0.891,
    256: 0.938; tools/benchmarks/bench_scale.py, BENCHMARKS.md)."""
    pgvector_search: bool = True
    """On PostgreSQL with the pgvector extension, search event vectors in SQL
    (exact, then HNSW past ``approximate_search_above``) instead of building a
    FAISS index in each process on open. Vectors are written to the ``vector``
    column either way."""
    persist_index: bool = True
    """Keep the vector indexes in files beside the database (``<db>.index/``),
    so reopening reads them instead of re-adding every stored vector."""
    episode_context_weight: float = 0.2
    """Hierarchical round retrieval blends an event's score with its episode's
    score by this weight (fixed a priori, not tuned on any benchmark)."""
    lexical_search: bool = True
    """Score events (and episodes and topics) by their words too: BM25 over
    their texts, fused with the embedding scores (``lexical_weight``). Off: the
    embedding scores alone (for ablation)."""
    lexical_weight: float = 0.5
    """The lexical part's weight in the fused score (the dense part has
    ``1 - lexical_weight``)."""
    lexical_stop_words: bool = True
    """Leave English function words out of the lexical index."""

    # Query processing (AdaMM §3.5).
    metadata_embedding_weight: float = 0.70
    metadata_token_weight: float = 0.30
    k_tables: int = 5
    k_episodes: int = 5
    max_steps: int = 3
    shared_budget: int = 10

    forest: ForestConfig = field(default_factory=ForestConfig)
    """The optional evidence-forest rerank stage."""

    # Extraction and ingestion.
    extraction_retries: int = 3
    """An LLM extraction is attempted at most this many times per round."""
    ingest_batch_size: int = 500
    """Rounds per write transaction during ingestion."""
    max_contributing_rows: int = 20
    """Contributing rows returned with a Compute result (the count is exact)."""
    max_image_pixels: int = 50_000_000
    """Images with more pixels are refused (reported per image) before decoding."""
    image_group_size: int = 16
    """Images decoded and encoded together during indexing; bounds memory."""

    def __post_init__(self) -> None:
        """Reject settings that would make induction meaningless."""
        if self.support_threshold < 1:
            raise ValueError("support_threshold must be at least 1")
        for name in (
            "all_confidence_threshold",
            "extension_confidence_threshold",
            "match_fraction",
            "type_inference_fraction",
        ):
            value = getattr(self, name)
            if not 0.0 < value <= 1.0:
                raise ValueError(f"{name} must be in (0, 1], got {value}")
        if self.text_backend not in TEXT_BACKENDS:
            raise ValueError(
                f"text_backend must be one of {', '.join(TEXT_BACKENDS)}, got "
                f"{self.text_backend!r}"
            )
        if not 0.0 <= self.lexical_weight <= 1.0:
            raise ValueError(
                f"lexical_weight must be in [0, 1], got {self.lexical_weight}"
            )
        if self.ingest_batch_size < 1:
            raise ValueError("ingest_batch_size must be at least 1")
