//! Dice frequencies over seeded runs (within 5 sigma) and exact probabilities from the
//! simulator, against the dice rules: equal 1/2, unequal 4/6, entangled groups in tandem.
