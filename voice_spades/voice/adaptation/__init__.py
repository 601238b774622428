"""Speaker adaptation: the player reads a few phrases, and PocketSphinx's acoustic
model is moved towards their voice: first by a linear transform of all its means
(MLLR), then each Gaussian towards the frames it took (MAP).

``front_end.py`` computes the model's own features (MFCC, CMN, deltas) in numpy;
``acoustic_model.py`` reads the model's Gaussians, mixture weights and triphone tree
(and writes means in its format); ``aligner.py`` finds which model state each frame
of a phrase belongs to (a forced alignment, in numpy too); ``estimate.py`` gathers the
statistics, solves the transform (``transform.py``) and moves each mean;
``trained_means.py`` saves the means PocketSphinx is given and reads them back checked,
since PocketSphinx given a malformed file ends the process or hears nothing;
``enrollment.py`` is the reading: the script of phrases and the passes.
"""
