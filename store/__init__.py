"""Papers in, chunks out: parsing, cleaning, chunking, embedding and the Chroma store."""
