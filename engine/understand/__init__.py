"""Understanding a question in the user's own words.

``form``: question or statement.
``spans``: mention spans by longest alias match (runs of tokens looked up in the alias table).
``bank``: the exemplar bank (``exemplars.yaml``, data) and its slot -> relation mapping.
``semantic``: relation and intent scores from the question with its mentions masked by kind.
``relevance``: whether retrieved passages are relevant enough to answer from.
``polarity``, ``twins``, ``chains``: which way an amount moves, which of two twin relations, and
whether a chain is asked, from the question's own words.
``negation``: the relation words a question denies.
``cueshare``: the neighbouring relations a cue word serves, learned from the bank's wordings.
``spelling``: typos of question words.
``learn``: the one learner of telling words from the bank's wordings (twins, chains, polarity).
``parse``: the question's features (kind nouns, cues, yes/no, target kind).
``lexicon``: function words, kind nouns and relation cues; ``datarel``, ``actions``: relation
and action words a store's data brings.
``mentions``, ``linking``: tokens, the alias index and linking mentions to nodes.
``pathfit``: how well a metapath explains the question's cues.
``followup``: anaphors and ellipsis of a conversation's follow-up questions.

Memory reads its questions with the same parts (``EnginePort.speller``, ``directions``).
"""
