"""The implementation of :class:`~reference.vector.AsyncVectorEnv` (public home: ``reference.vector.async_vector_env``).

Reading order:

* ``env`` — the class: construction, the call state machine, ``reset``/``step`` and ``close``;
* ``wire`` — frames (commands, replies, payloads) and the channels that carry them, with the spin-then-block wait;
* ``worker`` — the worker process: its loop, its commands, and how it dies with its parent;
* ``pool`` — how many workers, which sub-envs each serves, starting and stopping them;
* ``buffers`` — the shared memory and its compiled accessors;
* ``commands`` — ``call``, ``get_attr``, ``set_attr`` and ``render``.

One ``step`` reads in ``env`` → ``wire`` → ``worker`` (which runs :func:`~reference.vector._autoreset.step_envs`,
the loop ``SyncVectorEnv`` runs too) → ``wire`` → ``env``.
"""
