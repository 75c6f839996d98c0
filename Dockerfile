# syntax=docker/dockerfile:1
# The base image is pinned by tag and by the digest of its multi-architecture index, and every
# dependency comes from requirements.lock with its exact version and hashes, so two builds a
# month apart install the same code. The digest was not pulled here (no Docker engine): it is
# the one public repositories pin for this tag. Check it, or move to a newer one, with
#   docker buildx imagetools inspect python:3.11.14-slim-bookworm
# (the "Digest:" line) and put the same digest on both FROM lines (docs/operations.md).

# Stage 1 builds the bot's wheel, which compiles the engine with mypyc (setup.py): it needs a C
# compiler, which the image that runs the bot does not carry.
FROM python:3.11.14-slim-bookworm@sha256:65a93d69fa75478d554f4ad27c85c1e69fa184956261b4301ebaf6dbb0a3543d AS build
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY bot ./bot
COPY cogs ./cogs
RUN pip wheel --no-deps --wheel-dir /wheels .

FROM python:3.11.14-slim-bookworm@sha256:65a93d69fa75478d554f4ad27c85c1e69fa184956261b4301ebaf6dbb0a3543d

ENV PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PIP_NO_CACHE_DIR=1 \
    PYTHONUNBUFFERED=1

# Dependencies first: this layer is rebuilt only when requirements.lock changes. Every package
# has a wheel for this platform, so no compiler is needed.
COPY requirements.lock /tmp/requirements.lock
RUN pip install --require-hashes --no-deps -r /tmp/requirements.lock && rm /tmp/requirements.lock

# DejaVu draws the players' names on the table picture (Nordic, Greek, Cyrillic... letters);
# without it the bot falls back to Pillow's own font, which draws ASCII only.
RUN apt-get update \
    && apt-get install -y --no-install-recommends fonts-dejavu-core \
    && rm -rf /var/lib/apt/lists/*

# A fixed uid, so a host folder bind-mounted at /data can be given to it (README, Docker).
RUN useradd --create-home --uid 10001 uno && mkdir /data && chown uno:uno /data

# The bot's own wheel, from stage 1 (its engine compiled; no dependencies: they came above).
COPY --from=build /wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/*.whl && rm -rf /tmp/wheels

# ./config.toml is read from the working folder, so a config file is mounted at
# /app/config.toml.
WORKDIR /app

ENV UNO_DB_PATH=/data/uno.db \
    UNO_HEALTH_FILE=/data/health.json
VOLUME ["/data"]
USER uno

# The bot rewrites the heartbeat every 10 s; this reads it (ready, gateway connected, store
# open, fresh). Start-up (login, restoring games, syncing commands) gets a minute.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
    CMD ["python", "-m", "bot.health"]
CMD ["unoflip", "run"]
