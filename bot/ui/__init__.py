"""Rendering only: card labels and emoji, embeds, views and restart-safe buttons."""
