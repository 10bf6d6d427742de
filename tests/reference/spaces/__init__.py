"""Tests for reference.spaces."""
