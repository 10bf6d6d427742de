"""Tests for reference.registration."""
