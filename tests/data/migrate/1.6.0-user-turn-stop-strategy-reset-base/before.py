from pipecat.turns.user_stop.base_user_turn_stop_strategy import BaseUserTurnStopStrategy


class KeywordStopStrategy(BaseUserTurnStopStrategy):
    async def reset(self):
        self._keyword_seen = False
