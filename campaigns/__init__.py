"""Campaigns: organisers plan chapters, players take part with their characters."""
