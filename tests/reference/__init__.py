"""Tests for the reference implementation."""
