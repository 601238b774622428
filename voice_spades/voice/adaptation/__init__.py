"""Speaker adaptation: the player reads a few phrases, and PocketSphinx's acoustic
model is moved towards their voice by a linear transform of its means (MLLR).

``front_end.py`` computes the model's own features (MFCC, CMN, deltas) in numpy;
``acoustic_model.py`` reads the model's Gaussians, mixture weights and triphone tree;
``aligner.py`` finds which model state each frame of a phrase belongs to (a forced
alignment, in numpy too); ``estimate.py`` gathers the statistics and solves the
transform; ``transform.py`` reads and writes it in PocketSphinx's
MLLR format, checked, since PocketSphinx stops the process on a malformed file;
``enrollment.py`` is the reading: the script of phrases and the file it saves.
"""
