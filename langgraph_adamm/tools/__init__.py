"""Memory access tools: plain calls (``calls``) and LangChain tools (``langchain``)."""
