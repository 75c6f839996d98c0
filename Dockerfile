# syntax=docker/dockerfile:1
# Build stage: dependencies first (cached until pyproject.toml changes), then the source.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" > requirements.txt \
    && pip install --no-cache-dir --prefix=/install -r requirements.txt
COPY bot ./bot
COPY cogs ./cogs
RUN pip install --no-cache-dir --no-deps --prefix=/install .

# Runtime stage: no build tools, a non-root user, the SQLite file on the /data volume.
FROM python:3.11-slim
RUN useradd --create-home --uid 10001 uno && mkdir /data && chown uno:uno /data
COPY --from=build /install /usr/local
ENV UNO_DB_PATH=/data/uno.db \
    PYTHONUNBUFFERED=1
VOLUME ["/data"]
USER uno
WORKDIR /home/uno
CMD ["python", "-m", "bot"]
