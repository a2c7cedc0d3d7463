"""How the project reads Chinese standard text: one word segmenter, the modal verbs, the terms and the
patterns (standard numbers, notes, refusals) that checkers and injectors share. Nothing else defines these.
"""
