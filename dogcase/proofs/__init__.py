"""Proof of the conditions of registration: what the owner sends, the staff's review, and the rule that only
accepted proof counts toward a condition (docs/proofs.md)."""
