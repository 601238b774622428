"""Tests of voice_spades.session."""
