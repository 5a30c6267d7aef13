"""Understanding a question in the user's own words.

``form``: question or statement.
``spans``: mention spans by longest alias match (Aho-Corasick over the whole alias table).
``bank``: the exemplar bank (``exemplars.yaml``, data) and its slot -> relation mapping.
``semantic``: relation and intent scores from the question with its mentions masked by kind.
``relevance``: whether retrieved passages are relevant enough to answer from.
"""
