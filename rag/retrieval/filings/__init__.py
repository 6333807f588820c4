"""What a library's documents say about themselves, for picking the ones a question names
(rag.retrieval.documents): their profiles (profiles, saved by profile_store), their covers' form,
period and filer (covers), which are one company's (companies), and which of a company's filings a
question's periods ask for (periods)."""
