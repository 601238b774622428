"""Tests of voice_spades.storage."""
