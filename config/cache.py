"""Django's Redis cache, with its Redis client kept.

Django's `RedisCacheClient` builds a new `redis.Redis` around its connection pool for every
operation, and building one costs more than the GET it sends (redis-py sets up its response
callbacks and argument checks each time): a page reads its session and its player from the
cache, so it paid that twice or more. The client here keeps one `redis.Redis` per pool.
Django keeps a cache object per thread, so a kept client serves one thread; its pool checks
out a connection per command and notices a fork, as before.

`CACHE_URL=redis://...` selects it (config/settings.py).
"""

from django.core.cache.backends.redis import RedisCache, RedisCacheClient


class KeptRedisCacheClient(RedisCacheClient):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._clients = {}

    def get_client(self, key=None, *, write=False):
        pool = self._get_connection_pool(write)
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)
        return client


class KeptClientRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = KeptRedisCacheClient
