"""Streamlit wiring shared by every page: sidebar, cached calls into the core, i18n."""
