/** What the member-only pages show to a visitor: why to sign in, and the sign-in button. */
import { LoginButton } from '../../components/Header.tsx';
import { Notice } from '../../components/Notice.tsx';

export function SignInPrompt({ title, text }: { title: string; text: string }) {
  return (
    <Notice title={title} headingLevel={2}>
      <p>{text}</p>
      <LoginButton className="button" />
    </Notice>
  );
}
