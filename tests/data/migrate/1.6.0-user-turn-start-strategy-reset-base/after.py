from pipecat.turns.user_start.base_user_turn_start_strategy import BaseUserTurnStartStrategy


class KeywordStartStrategy(BaseUserTurnStartStrategy):
    async def reset(self):
        self._keyword_seen = False
