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
