"""The bench's reports of a slope run: the table (:mod:`.table`), JSON and CSV
records (:mod:`.records`) and the throughput plot (:mod:`.plot`)."""
