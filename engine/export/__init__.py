"""The subgraph behind an answer, through NetworkX: built from a ``Result`` (``subgraph``),
the nodes its paths share (``hub``), and the graph file formats (``formats``)."""
