"""Cached calls into the core, one module per page, named after the page they serve.

Models and layers: `st.cache_resource` (loaded once per process, shared read-only). Results:
`st.cache_data` with a bounded `max_entries`, keyed by small hashable settings, so that many
users and long runs of settings keep memory flat; the sentence's attention trace, which every
page reads and which is quicker to compute than to pickle, is a bounded `st.cache_resource`
shared read-only (`attention.sentence_attention`). Nothing here draws on the page.
"""
