"""dogcase: a Minnesota city's dangerous-dog law, run end to end."""
