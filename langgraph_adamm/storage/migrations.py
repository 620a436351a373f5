"""Versioned schema migrations for the memory database.

Each migration is applied once, in order, inside a transaction, and recorded in
``adamm_migrations``; applying them again is a no-op. Never edit a released
migration: append a new one.
"""

from __future__ import annotations

MIGRATIONS: list[tuple[int, str, list[str]]] = [
    (
        1,
        "raw rounds, images, observations, pattern counts, schemas and columns",
        [
            """CREATE TABLE adamm_rounds (
                user_id VARCHAR NOT NULL,
                round_id VARCHAR NOT NULL,
                session_id VARCHAR NOT NULL,
                "order" BIGINT NOT NULL,
                time TIMESTAMP,
                user_text VARCHAR,
                assistant_text VARCHAR,
                metadata JSON,
                status VARCHAR NOT NULL DEFAULT 'pending',
                error VARCHAR,
                attempts INTEGER NOT NULL DEFAULT 0,
                PRIMARY KEY (user_id, round_id)
            )""",
            """CREATE TABLE adamm_images (
                user_id VARCHAR NOT NULL,
                image_id VARCHAR NOT NULL,
                round_id VARCHAR NOT NULL,
                path VARCHAR,
                url VARCHAR,
                caption VARCHAR,
                ocr VARCHAR,
                problem VARCHAR,
                PRIMARY KEY (user_id, round_id, image_id)
            )""",
            """CREATE TABLE adamm_observations (
                user_id VARCHAR NOT NULL,
                round_id VARCHAR NOT NULL,
                attribute VARCHAR NOT NULL,
                raw_attribute VARCHAR,
                value_text VARCHAR,
                value_kind VARCHAR NOT NULL,
                number DOUBLE,
                unit VARCHAR,
                boolean BOOLEAN,
                ts TIMESTAMP,
                source VARCHAR NOT NULL,
                image_id VARCHAR,
                span_start INTEGER,
                span_end INTEGER
            )""",
            """CREATE TABLE adamm_pattern_types (
                user_id VARCHAR NOT NULL,
                attributes VARCHAR NOT NULL,
                count BIGINT NOT NULL,
                PRIMARY KEY (user_id, attributes)
            )""",
            """CREATE TABLE adamm_schemas (
                user_id VARCHAR NOT NULL,
                schema_id INTEGER NOT NULL,
                table_name VARCHAR NOT NULL,
                description VARCHAR,
                attributes VARCHAR[] NOT NULL,
                created_order BIGINT,
                version INTEGER NOT NULL DEFAULT 1,
                PRIMARY KEY (user_id, schema_id)
            )""",
            """CREATE TABLE adamm_columns (
                user_id VARCHAR NOT NULL,
                schema_id INTEGER NOT NULL,
                position INTEGER NOT NULL,
                column_name VARCHAR NOT NULL,
                attribute VARCHAR NOT NULL,
                sql_type VARCHAR NOT NULL,
                unit VARCHAR,
                description VARCHAR,
                samples VARCHAR[]
            )""",
        ],
    ),
]
MIGRATIONS.append(
    (
        2,
        "retrieval memory: events, views, episodes and topics (vectors as "
        "little-endian float32 BLOBs)",
        [
            "ALTER TABLE adamm_rounds ADD COLUMN indexed BOOLEAN DEFAULT false",
            "UPDATE adamm_rounds SET indexed = false",
            """CREATE TABLE adamm_events (
                user_id VARCHAR NOT NULL,
                round_id VARCHAR NOT NULL,
                session_id VARCHAR NOT NULL,
                "order" BIGINT NOT NULL,
                time TIMESTAMP,
                text VARCHAR,
                text_vec BLOB,
                visual_vec BLOB,
                episode_id INTEGER,
                PRIMARY KEY (user_id, round_id)
            )""",
            """CREATE TABLE adamm_event_views (
                user_id VARCHAR NOT NULL,
                round_id VARCHAR NOT NULL,
                view VARCHAR NOT NULL,
                modality VARCHAR NOT NULL,
                vec BLOB NOT NULL
            )""",
            """CREATE TABLE adamm_episodes (
                user_id VARCHAR NOT NULL,
                episode_id INTEGER NOT NULL,
                topic_id INTEGER,
                description VARCHAR,
                start_time TIMESTAMP,
                end_time TIMESTAMP,
                event_ids VARCHAR[],
                text_sum BLOB,
                visual_sum BLOB,
                visual_count INTEGER,
                closed BOOLEAN,
                PRIMARY KEY (user_id, episode_id)
            )""",
            """CREATE TABLE adamm_topics (
                user_id VARCHAR NOT NULL,
                topic_id INTEGER NOT NULL,
                description VARCHAR,
                episode_ids INTEGER[],
                text_sum BLOB,
                visual_sum BLOB,
                visual_count INTEGER,
                PRIMARY KEY (user_id, topic_id)
            )""",
            """CREATE TABLE adamm_retrieval_meta (
                user_id VARCHAR PRIMARY KEY,
                text_encoder VARCHAR,
                visual_encoder VARCHAR,
                current_episode INTEGER
            )""",
        ],
    )
)
MIGRATIONS.append(
    (
        3,
        "records within a round, value ranges and notes, column unit decisions, "
        "schema components, values that could not be cast, ungrounded counts",
        [
            "ALTER TABLE adamm_observations ADD COLUMN record INTEGER DEFAULT 0",
            "ALTER TABLE adamm_observations ADD COLUMN low DOUBLE",
            "ALTER TABLE adamm_observations ADD COLUMN high DOUBLE",
            "ALTER TABLE adamm_observations ADD COLUMN note VARCHAR",
            "ALTER TABLE adamm_observations ADD COLUMN scale DOUBLE",
            "ALTER TABLE adamm_observations ADD COLUMN alt DOUBLE",
            "ALTER TABLE adamm_rounds ADD COLUMN ungrounded INTEGER DEFAULT 0",
            "ALTER TABLE adamm_schemas ADD COLUMN components VARCHAR[]",
            "ALTER TABLE adamm_columns ADD COLUMN bare_unit VARCHAR",
            "ALTER TABLE adamm_columns ADD COLUMN band_low DOUBLE",
            "ALTER TABLE adamm_columns ADD COLUMN band_high DOUBLE",
            "ALTER TABLE adamm_columns ADD COLUMN clock_reading VARCHAR",
            "ALTER TABLE adamm_columns ADD COLUMN alt_reading VARCHAR DEFAULT ''",
            """CREATE TABLE adamm_cast_problems (
                user_id VARCHAR NOT NULL,
                schema_id INTEGER NOT NULL,
                column_name VARCHAR NOT NULL,
                round_id VARCHAR NOT NULL,
                record INTEGER NOT NULL DEFAULT 0,
                value_text VARCHAR,
                reason VARCHAR
            )""",
        ],
    )
)
MIGRATIONS.append(
    (
        4,
        "a token that changes with every indexed batch, so that a persisted vector "
        "index is only ever read back by the database state it was written for",
        ["ALTER TABLE adamm_retrieval_meta ADD COLUMN index_token VARCHAR"],
    )
)
MIGRATIONS.append(
    (
        5,
        "corrections of observed values: when, by whom, and the value first extracted",
        [
            "ALTER TABLE adamm_observations ADD COLUMN corrected_at TIMESTAMP",
            "ALTER TABLE adamm_observations ADD COLUMN corrected_by VARCHAR",
            "ALTER TABLE adamm_observations ADD COLUMN original_text VARCHAR",
        ],
    )
)
MIGRATIONS.append(
    (
        6,
        "each table's column statistics (what its types and units are decided "
        "from), kept with its rows, so that a reopened memory need not count them",
        [
            """CREATE TABLE adamm_column_stats (
                user_id VARCHAR NOT NULL,
                schema_id INTEGER NOT NULL,
                stats VARCHAR NOT NULL,
                PRIMARY KEY (user_id, schema_id)
            )""",
        ],
    )
)
MIGRATIONS.append(
    (
        7,
        "a number per user that every writer bumps when it takes and when it "
        "releases the user's memory, so that another process can tell that what "
        "it holds in memory is stale",
        [
            """CREATE TABLE adamm_user_versions (
                user_id VARCHAR PRIMARY KEY,
                version BIGINT NOT NULL
            )""",
        ],
    )
)
MIGRATIONS.append(
    (
        8,
        "each user's dated rounds in history order, where an undated round finds "
        "the dated rounds around it (an index; PostgreSQL only, DuckDB joins)",
        [],
    )
)
MIGRATIONS.append(
    (
        9,
        "items of the LangGraph store over the memory (AdaMMStore): each key's "
        "value as put, its sub-namespace, and the round that carries its text",
        [
            """CREATE TABLE adamm_store_items (
                user_id VARCHAR NOT NULL,
                namespace VARCHAR NOT NULL,
                key VARCHAR NOT NULL,
                round_id VARCHAR,
                value VARCHAR NOT NULL,
                created_at TIMESTAMP NOT NULL,
                updated_at TIMESTAMP NOT NULL,
                PRIMARY KEY (user_id, namespace, key)
            )""",
        ],
    )
)
MIGRATIONS.append(
    (
        10,
        "vectors of the short texts the rule planner compares questions with "
        "(column names), by user, encoder and text, stored when the memory is "
        "written so that a question needs no text model for them",
        [
            """CREATE TABLE adamm_text_vectors (
                user_id VARCHAR NOT NULL,
                encoder VARCHAR NOT NULL,
                text VARCHAR NOT NULL,
                vec BLOB NOT NULL,
                PRIMARY KEY (user_id, encoder, text)
            )""",
        ],
    )
)
LATEST_VERSION = MIGRATIONS[-1][0]

POSTGRES_EXTRAS: dict[int, list[str]] = {
    1: [
        # DuckDB numbers its storage rows (``rowid``); PostgreSQL gets a column
        # of that name, numbered in insertion order as DuckDB's are.
        "ALTER TABLE adamm_observations ADD COLUMN rowid BIGSERIAL",
        "CREATE INDEX adamm_observations_round ON adamm_observations "
        "(user_id, round_id)",
        "CREATE INDEX adamm_columns_schema ON adamm_columns (user_id, schema_id)",
    ],
    2: [
        "ALTER TABLE adamm_events ADD COLUMN rowid BIGSERIAL",
        "CREATE UNIQUE INDEX adamm_events_rowid ON adamm_events (rowid)",
        "CREATE INDEX adamm_event_views_round ON adamm_event_views (user_id, round_id)",
    ],
    3: [
        "CREATE INDEX adamm_cast_problems_schema ON adamm_cast_problems "
        "(user_id, schema_id)",
    ],
    8: [
        'CREATE INDEX adamm_rounds_dated ON adamm_rounds (user_id, "order") '
        "INCLUDE (time) WHERE time IS NOT NULL",
    ],
    9: [
        "CREATE INDEX adamm_store_items_round ON adamm_store_items "
        "(user_id, round_id)",
    ],
}
"""Statements only PostgreSQL runs after the migration of the same number: the
row numbers DuckDB keeps by itself, and the indexes a row store needs where
DuckDB scans its columns (each user's rows are found by ``user_id``)."""
