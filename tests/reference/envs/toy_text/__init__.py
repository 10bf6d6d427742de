"""Tests for reference.envs.toy_text."""
