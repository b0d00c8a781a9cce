"""The domain's layer 0: money, clocks and slugs, each rule written once.

No models and no imports from any other app (`tests/test_architecture.py` checks both), so every app may use it.
Outside this package the code does not build a `ZoneInfo`, `.quantize()` money, keep a currency symbol table or
`slugify()` on its own.
"""
