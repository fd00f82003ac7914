"""NegHub's runs through other engines, with no model loaded here: `neghub prompts` writes a run's requests for
any engine and `neghub import` reads its answers back (prompts.py, answers.py); `neghub export lm-eval` writes the
runs as lm-evaluation-harness tasks and `neghub import lm-eval` reads lm-eval's samples back (lm_eval.py)."""
