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

Return an abstract plan of at most {max_steps} steps; each step has a goal (what
information it obtains) and the tool that obtains it. Do not fill arguments yet.
Use as few steps as the question needs."""
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
dates as ISO (YYYY-MM-DD).{repair}"""
"""Fields: question, question_time, plan, results, context, step, goal, tool,
tool_description, budget, budget_left, repair."""

REPAIR_NOTE = """

Your previous arguments for this step failed: {error}
Correct them."""
"""Fields: error."""

READER_PROMPT = """Answer the user's question from the tool results below only.
State computed values exactly as the tools returned them, with their units. If
the results do not contain the answer, say so plainly. Cite the round ids of the
evidence you used.

Question: {question}
Now: {question_time}
Plan and results:
{results}"""
"""Fields: question, question_time, results."""
