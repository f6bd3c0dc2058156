/** The 'Return to Home' button of the error screens. */
import { useNavigate } from '../navigation.ts';

export function ReturnHomeButton() {
  const navigate = useNavigate();
  return (
    <button type="button" className="button" onClick={() => navigate('/')}>
      Return to Home
    </button>
  );
}
