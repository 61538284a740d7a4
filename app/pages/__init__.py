"""View models, one module per wizard step: plain rows and dicts the templates loop over.

No Flask here (the CLI and the worker use them too): templates never compute, so trees come with
their depth, transactions with their splits nested and paginated, problems with their links.
"""
