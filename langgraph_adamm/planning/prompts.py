"""Prompts of the query side (planner, instantiation, reader), as named constants.

Callers may pass their own through ``create_query_graph(..., prompts=...)``; each
template is filled with ``str.format`` and the fields named in its docstring.
"""

PLANNER_PROMPT = """You plan how to answer a question from a user's long-term memory.
The memory has analytic tables (exact records: use lookup, filter, compute, rank)
and retrieval memory (dialogue, images, events: use semantic_match, event_locate).
Averages, totals, counts, extremes, latest/first values and changes need compute
or rank over a table - never estimate them from retrieved snippets.

Question: {question}
Now (resolve "last week", "in March", "yesterday" against it): {question_time}

Planning context (the most relevant tables and episodes):
{context}

Tools:
{tools}

Return an abstract plan of at most {max_steps} memory steps (a combine step does
not count); each step has a goal (what information it obtains) and the tool that
obtains it. Do not fill arguments yet. Use as few steps as the question needs.
Compose when the question does:
- a period told by an event ("since we moved", "before the new job"): an
  event_locate step for the event, then the compute bounded by its day;
- two periods or groups compared ("more in April than in March", "how much
  more", "by what percent"): one compute per side, then a combine step;
- "which cafe/drink/week ... the most in total / most often / on average": one
  rank (or compute) with group_by.
Every part of the question (period, condition, event, grouping) must be used by
a step."""
"""Fields: question, question_time, context, tools, max_steps."""

INSTANTIATE_PROMPT = """Fill in the arguments of one tool call of a plan.

Question: {question}
Now: {question_time}
Plan:
{plan}

Results of the steps so far:
{results}

Planning context:
{context}

Step {step} of the plan: goal "{goal}", tool {tool}.
{tool_description}
Budget: the whole plan shares {budget} units; {budget_left} are left. A returned row
or memory unit costs 1, a computed value with its rows costs 1, so result_budget
must not exceed {budget_left}. Use only tables and columns from the context;
dates as ISO (YYYY-MM-DD). An argument may refer to an earlier step's result
instead of copying it: "$1.day" (the day of the event step 1 located, or of its
top row), "$1.day-7" / "$1.day+1" (days before/after it), "$1.value", "$1.group";
e.g. {{"column": "time", "op": ">=", "value": "$1.day"}}. A combine step's left
and right are "$1", "$2".{repair}"""
"""Fields: question, question_time, plan, results, context, step, goal, tool,
tool_description, budget, budget_left, repair."""

REPAIR_NOTE = """

Your previous arguments for this step failed: {error}
Correct them."""
"""Fields: error."""

READER_PROMPT = """Answer the user's question from the tool results below only.
State computed values exactly as the tools returned them, with their units; a
combine step's value is the comparison or difference - do no arithmetic of your
own. If the results do not contain the answer, say so plainly. Cite the round ids
of the evidence you used.

Parts of the question no step could use: {unresolved}
If that is not "none", say which parts you could not use and give no number as
the answer to the whole question.

Question: {question}
Now: {question_time}
Plan and results:
{results}"""
"""Fields: question, question_time, results, unresolved."""

FORM_PROMPT = """Fill in the form of a question about a user's records.

Question: {question}
Today: {question_time}

Tables (use only these names; a filter value must be one of a column's values):
{catalogue}

Forms:
- value: one figure over the records: operator sum, avg, count, min, max,
  median, latest or first of a measure column.
- compare: two sides that differ in one filter value or one period; combine
  is difference (side one minus side two), ratio, percent_change (from side
  one to side two), greater or less (yes/no: is side one greater/less).
- top_group: the group (a column, or day/week/month/year) with the highest
  (bottom=false) or lowest (bottom=true) figure.
- share: the part (a filter) as a percentage of the whole.
- not_records: the question is not about the tables' records.

A period is its first and last day (YYYY-MM-DD), read against today. An event
the question bounds the period by goes in event, with relation since, before
or on; never guess its date. Each span is copied word for word from the
Question above. Fill only slots the Question asks for; leave the others out.

Examples (other questions, other tables):
"How much did I spend at Lidl in March?" ->
{{"form": "value", "table": "shop_log", "operator": "sum", "measure": "amount",
 "measure_span": "how much did I spend", "filters": [{{"column": "shop",
 "value": "Lidl", "span": "at Lidl"}}], "period": {{"start": "2026-03-01",
 "end": "2026-03-31", "span": "in March"}}}}
"How many runs have I done since I started the new job?" ->
{{"form": "value", "table": "run_log", "operator": "count", "event":
 {{"relation": "since", "event": "I started the new job", "span": "since I
 started the new job"}}}}
"Did I pay more per coffee at Bean than at Brew?" ->
{{"form": "compare", "table": "coffee_log", "operator": "avg", "measure":
 "price", "measure_span": "pay more per coffee", "filters": [{{"column": "cafe",
 "value": "Bean", "span": "at Bean"}}], "other": {{"filter": {{"column": "cafe",
 "value": "Brew", "span": "at Brew"}}}}, "combine": "greater"}}{repair}"""
"""Fields: question, question_time, catalogue, repair."""

FORM_REPAIR_NOTE = """

Your previous form named what the tables do not hold: {error}
Correct it."""
"""Fields: error."""
