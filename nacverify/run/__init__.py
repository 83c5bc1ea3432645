"""Running claims: `runner` evaluates them (serially, or claim groups as Dask tasks), `task_plan`
cuts groups into tasks by their measured seconds, `shared_work` lets claims share one computation."""
