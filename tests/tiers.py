"""Which tests run only in the second tier (``bash tools/quickstart.sh test --all``, CI).

The first tier, the README's test command, answers in minutes: what stays there is every test of
a rule, a statistic, a fault, a clean-up and a file format, and one representative of each long
check; what moves here repeats a check the first tier makes on a larger or slower case (every
compiler, every quick documentation table, every cluster address, every browser view), or plays
many games to make its point. Nothing moved here is dropped: CI runs every tier. A test file can
also mark a test ``@pytest.mark.full`` itself; this list keeps the moves of older tests in one
place, each under its reason (node ids, a prefix matching every parametrization).
"""
from __future__ import annotations

import os

# Set by tests/conftest.py before the test files are imported: "all" when the second tier runs.
TIER_VARIABLE = "BOTARENA_TEST_TIER"


def examples(every_tier: int) -> int:
    """How many examples a property test (hypothesis) draws: all of them when the second tier
    runs (CI), a quarter in the first tier alone. The draws are derandomized, so each tier's
    run is the same every time."""
    return every_tier if os.environ.get(TIER_VARIABLE) == "all" else max(2, every_tier // 4)

SECOND_TIER: dict[str, tuple[str, ...]] = {
    # the quick documentation tables re-run in full: 20-50 s each; bundle-line and tools-seeds
    # stay (a bundle's provenance line, the seed rule), and test_stats checks every statistic
    # these tables print against worked numbers
    "documentation tables": (
        "tests/tools/test_doc_claims.py::test_a_quick_table_reproduces[tools-league]",
        "tests/tools/test_doc_claims.py::test_a_quick_table_reproduces[tools-match]",
        "tests/tools/test_doc_claims.py::test_a_quick_table_reproduces[tools-sprt]",
        "tests/tools/test_doc_claims.py::test_a_quick_table_reproduces[search-number-maze]",
        "tests/tools/test_doc_claims.py::test_a_quick_table_reproduces[bundle-sizes]",
        "tests/tools/test_doctables.py::test_regenerated_tables_hold_what_the_commands_print",
        "tests/tools/test_doctables.py::test_tables_after_a_rewritten_one_in_the_same_doc",
    ),
    # every compiler: the first tier compiles and plays each language once
    # (test_a_source_file_plays_a_whole_game_through_play) and checks one bundle
    "compilers": (
        "tests/tools/test_compiled_bots.py::test_it_compiles_once_and_again_only_when",
        "tests/tools/test_compiled_bots.py::test_on_a_cluster_each_worker_compiles_it",
        "tests/tools/test_compiled_bots.py::test_match_league_sweep_and_tune_take_a_source_file",
        "tests/tools/test_compiled_bots.py::test_a_cargo_projects_main_rs_compiles_with_its_edition",
        "tests/tools/test_bundle_native.py::test_the_bundle_compiles_alone_and_plays_as_the_original_on_20_seeds[cpp]",
        "tests/tools/test_bundle_native.py::test_the_bundle_compiles_alone_and_plays_as_the_original_on_20_seeds[java]",
        "tests/tools/test_bundle_native.py::test_the_bundle_compiles_alone_and_plays_as_the_original_on_20_seeds[rust]",
    ),
    # a Dask cluster: the first tier keeps a local cluster playing the local threads' games (the
    # errors a worker reports are the cluster's own paths, checked here)
    "cluster": (
        "tests/tools/test_cluster.py::test_dask_scheduler_and_workers_play_a_league",
        "tests/tools/test_cluster.py::test_a_worker_killed_mid_run_loses_no_game_and_counts_none_twice",
        "tests/tools/test_cluster.py::test_an_interrupted_cluster_run_resumes",
        "tests/tools/test_cluster.py::test_sprt_stops_early_on_a_cluster_and_cancels_the_rest",
        "tests/tools/test_cluster.py::test_the_cluster_benchmark_runs_small_and_prints_its_figures",
        "tests/tools/test_cluster.py::test_a_producer_makes_up_bots_as_it_goes_on_a_cluster",
        "tests/tools/test_cluster.py::test_a_bad_cluster_address_is_one_line",
        "tests/tools/test_cluster.py::test_a_bot_missing_on_a_worker_is_an_error_naming_it",
        "tests/tools/test_cluster.py::test_a_game_no_worker_can_play_is_a_referee_error_naming_the_worker",
        "tests/tools/test_cluster_address.py::",
        "tests/tools/test_tune.py::test_tune_on_a_cluster_ends_where_local_threads_end",
        "tests/tools/test_external_games.py::test_a_match_on_a_local_cluster",
    ),
    # the browser: the first tier keeps one page of each viewer driven (space plays and pauses;
    # CodinGame's played to its scores)
    "browser": (
        "tests/tools/test_view_browser.py::test_board_is_the_rules_position_at_a_known_turn",
        "tests/tools/test_view_browser.py::test_stderr_fault_marker_and_no_bot_markup_run",
        "tests/tools/test_view_browser.py::test_two_replays_one_timeline_first_difference_marked",
        "tests/tools/test_view_browser.py::test_a_replay_of_another_version_says_so_instead_of_drawing",
        "tests/tools/test_view_hostile.py::test_an_event_handler_or_script_slipped_into_the_page",
        # CodinGame's viewer: the first tier drives it served by view --serve
        "tests/tools/test_viewer_codingame_browser.py::test_a_folder_on_a_plain_static_server",
    ),
    # many games or many command runs for one point; a sibling in the first tier makes the point
    # on a smaller case (named after each)
    "long command-line runs": (
        "tests/tools/test_tune.py::test_spsa_tunes_the_real_bot_from_the_edge",       # racing's
        "tests/tools/test_tune.py::test_race_text_table_csv_and_plot_agree",          # spsa plot
        "tests/tools/test_sweep.py::test_text_table_shows_success_and_the_opponents_figures",
        "tests/tools/test_sweep.py::test_success_plot_against_a_chosen_parameter",    # plot_is_written
        "tests/tools/test_sweep.py::test_plot_of_a_point_that_wins_every_game_is_drawn",
        "tests/tools/test_seeds_file.py::test_a_run_resumes_only_with_the_same_seeds",
        "tests/tools/test_seeds_file.py::test_league_sweep_tune_and_solo_games_play_only_the_files_seeds[command1]",
        "tests/tools/test_seeds_file.py::test_league_sweep_tune_and_solo_games_play_only_the_files_seeds[command2]",
        "tests/tools/test_seeds_file.py::test_league_sweep_tune_and_solo_games_play_only_the_files_seeds[command3]",
        "tests/tools/test_seeds_file.py::test_bad_seeds_options_are_one_line[args2",
        "tests/tools/test_seeds_file.py::test_bad_seeds_options_are_one_line[args3",
        "tests/tools/test_results_file.py::test_a_bot_file_deleted_mid_match_stops_the_run",
        "tests/tools/test_results_file.py::test_a_malformed_line_with_the_right_stamp_is_one_line[change2]",
        "tests/tools/test_results_file.py::test_a_malformed_line_with_the_right_stamp_is_one_line[change3]",
        "tests/tools/test_results_file.py::test_a_malformed_line_with_the_right_stamp_is_one_line[change4]",
        "tests/tools/test_results_file.py::test_a_malformed_line_with_the_right_stamp_is_one_line[change5]",
        "tests/tools/test_results_file.py::test_a_malformed_line_with_the_right_stamp_is_one_line[change6]",
        "tests/tools/test_results_file.py::test_a_malformed_line_with_the_right_stamp_is_one_line[change7]",
        "tests/tools/test_bad_input.py::test_match_options_at_random_are_refused_in_one_line_or_run",
        "tests/tools/test_bad_input.py::test_a_results_file_with_random_json_resumes_or_is_refused",
        "tests/tools/test_external_games.py::test_league_of_four_player_games_rates_from_pairwise",
        "tests/tools/test_external_games.py::test_sweep_and_tune_on_a_game_file",
        "tests/tools/test_bench.py::test_benchmark_runs_small_and_prints_its_figures[jobs",
        # the benchmarks of the harness's clean-up and of long runs: the processes stage checks
        # the clean-up itself (SIGKILL, SIGINT, escapes); the cheaper benchmarks stay
        "tests/tools/test_bench.py::test_benchmark_runs_small_and_prints_its_figures[escape",
        "tests/tools/test_bench.py::test_benchmark_runs_small_and_prints_its_figures[harness interrupt",
        "tests/tools/test_bench.py::test_benchmark_runs_small_and_prints_its_figures[view-game",
        "tests/tools/test_bench.py::test_benchmark_runs_small_and_prints_its_figures[match --games 30",
        "tests/tools/test_tune.py::test_spsa_plot_is_drawn_per_parameter",      # sweep's plot_is_written
    ),
    # a check repeated for every bot or every game: the first tier keeps one bot of each game
    # (each game's codec and rules bundled and played) and two games' pages
    "every bot, every game": tuple(
        f"tests/tools/test_bundle.py::test_bundle_plays_exactly_like_the_original[{bot}]"
        for bot in ("xmas_rush/hybrid", "xmas_rush/pmc", "xmas_rush/duct", "xmas_rush/random",
                    "othello/pmc", "othello/mcts", "othello/iterative_deepening", "othello/alphabeta",
                    "othello/random", "number_maze_duel/random", "number_maze_duel/mcts",
                    "number_maze_duel/pmc", "tictactoe/pmc", "tictactoe/mcts", "tictactoe/minimax",
                    "tictactoe/alphabeta", "number_maze/chokudai", "number_maze/greedy",
                    "number_maze/random", "calculation/random", "calculation/mcts", "calculation/greedy")
    ) + tuple(
        f"tests/tools/test_view.py::test_every_game_gets_a_self_contained_page[{game}]"
        for game in ("calculation", "number_maze_duel", "othello", "number_maze")
    ),
}


def second_tier(nodeid: str) -> str | None:
    """The reason a test runs only in the second tier, or None."""
    for reason, prefixes in SECOND_TIER.items():
        if nodeid.startswith(prefixes):
            return reason
    return None
