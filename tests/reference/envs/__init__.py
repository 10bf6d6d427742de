"""Tests for reference.envs."""
