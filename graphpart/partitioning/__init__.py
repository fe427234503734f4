"""Partitioning: assignment (random, METIS), reshuffle, HALO and the partition book."""
