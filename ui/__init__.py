"""User interfaces: the `paperchat` CLI and the Gradio app; they render what `rag` returns."""
