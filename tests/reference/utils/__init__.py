"""Tests for reference.utils."""
