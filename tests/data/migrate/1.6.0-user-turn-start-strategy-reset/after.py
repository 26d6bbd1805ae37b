from pipecat.turns.user_start import BaseUserTurnStartStrategy


class KeywordStartStrategy(BaseUserTurnStartStrategy):
    async def reset(self):
        self._keyword_seen = False
