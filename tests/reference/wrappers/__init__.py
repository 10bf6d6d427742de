"""Tests for reference.wrappers."""
