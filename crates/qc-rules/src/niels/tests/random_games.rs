//! Random legal games never reach an illegal position.
