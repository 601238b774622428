"""Tests of voice_spades.narration."""
