"""Rendering exact tables for people and programs (markdown, CSV, JSON, HTML), apart from the
results they render: every layer may use it; it imports nothing of ``analysis``."""
