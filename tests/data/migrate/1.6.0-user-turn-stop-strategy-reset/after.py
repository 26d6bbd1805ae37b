from pipecat.turns.user_stop import BaseUserTurnStopStrategy


class KeywordStopStrategy(BaseUserTurnStopStrategy):
    async def reset(self):
        self._keyword_seen = False
