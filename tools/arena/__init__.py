"""Playing game jobs: bot specs, runners, results files, standings and tallies."""
