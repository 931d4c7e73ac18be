"""The range of every whole number from outside, and the sentence that refuses one beyond
it, for `config` (the API's parser and schema, the pages' middleware): they live in
`characters.bounds`, where every app's API reads them too (an app cannot import `config`)."""

from characters.bounds import API_INT_MAX, API_INT_MIN, out_of_range_sentence

__all__ = ["API_INT_MAX", "API_INT_MIN", "out_of_range_sentence"]
