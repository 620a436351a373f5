"""Retrieval memory (AdaMM §3.4, Appendix A): events, episodes and topics."""
